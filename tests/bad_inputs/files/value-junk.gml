graph [
  directed 1
  node [ id 0 label "s" ]
  node [ id 1 label "a" w "fast" ]
  node [ id 2 label "b" w 1 ]
  edge [ source 0 target 1 c 1 ]
  edge [ source 0 target 2 c 1 ]
]
