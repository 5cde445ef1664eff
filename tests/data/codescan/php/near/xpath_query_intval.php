<?php
$id = intval($_GET['id']);
$nodes = $xpath->query("//user[@id=" . $id . "]/email");
