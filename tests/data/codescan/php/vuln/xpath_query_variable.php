<?php
$name = $_GET['name'];
$expr = "//user[@name='$name']/email";
$nodes = $xpath->query($expr);
echo $nodes->item(0)->nodeValue;
