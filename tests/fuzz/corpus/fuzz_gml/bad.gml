graph [
 node [ id 0 ]
 node [ id 1 label "a\"b" ]
 edge [ source 0 target 1 c -1 ]
]
