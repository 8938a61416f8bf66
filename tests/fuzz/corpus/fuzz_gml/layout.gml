graph
[
  node
  [
    id 0
    label "a"
    w 1e-3
  ]
  node [ id 1 label "b" w 3 ]
  edge [ source 0 target 1 c 1.5e2 ]
  edge [ source 1 target 0 c 7 ]
]
