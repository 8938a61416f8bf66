Creator "hand"
graph [
  node [ ta 0 label "Palir" w 2 tsabel "Lyon" ]
  node [ id 2 label "LyonNice" w "  [
label‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹ directed 1
 node [ id 5labme "s" ] node [ id 7 nameports "t" por"rce 1 tParitdire 5 ]
]
