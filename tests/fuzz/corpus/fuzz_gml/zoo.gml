Creator "hand"
graph [
  node [ id 0 label "Paris" w 2 ]
  node [ id 1 label "Lyon" ]
  node [ id 2 label "Nice" w "1/3" ]
  edge [ source 0 target 1 c 0.1 ]
  edge [ source 1 target 2 c "1/3" ]
  edge [ source 2 target 0 c 5 ]
]
