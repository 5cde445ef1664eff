<?php
$expr = $_GET['calc'];
eval('$result = ' . $expr . ';');
echo $result;
