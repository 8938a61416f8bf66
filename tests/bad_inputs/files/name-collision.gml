graph [
  directed 1
  node [ id 0 label "s" ]
  node [ id 1 label "a (id 3)" w 1 ]
  node [ id 2 label "a" w 1 ]
  node [ id 3 label "a" w 1 ]
  edge [ source 0 target 1 c 1 ]
  edge [ source 0 target 2 c 1 ]
  edge [ source 0 target 3 c 1 ]
]
