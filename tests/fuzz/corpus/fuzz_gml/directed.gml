graph [ directed 1
 node [ id 5 name "s" ] node [ id 7 name "t" ports "multi" ]
 edge [ source 5 target 7 c 2 l "1/10" ] ]
