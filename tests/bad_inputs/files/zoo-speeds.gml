graph [
  node [ id 0 label "s" ]
  node [ id 1 label "a" speed 4 ]
  node [ id 2 label "b" speed 2 ]
  edge [ source 0 target 1 bw 1000 lat 0.001 ]
  edge [ source 0 target 2 bw 500 ]
]
