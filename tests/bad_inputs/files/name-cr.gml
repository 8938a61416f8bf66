graph [
  directed 1
  node [ id 0 label "ab" w "1" ]
  node [ id 1 label "c" w "1" ]
  edge [ source 0 target 1 c "1" ]
  edge [ source 1 target 0 c "1" ]
]
