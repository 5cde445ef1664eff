<?php
usort($users, function ($a, $b) {
    return strcmp($a['name'], $b['name']);
});
