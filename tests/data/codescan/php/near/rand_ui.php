<?php
$colors = ['red', 'green', 'blue'];
$bannerColor = $colors[array_rand($colors)];
$delayMs = mt_rand(100, 300); // jitter for the retry loop
