<?php
$pages = ['home' => 'pages/home.php', 'about' => 'pages/about.php'];
$page = $pages[$_GET['page'] ?? 'home'] ?? 'pages/home.php';
include $page;
