<?php
function fetchAvatar() {
    $ch = curl_init();
    curl_setopt($ch, CURLOPT_URL, $_POST['avatar_url']);
    curl_setopt($ch, CURLOPT_RETURNTRANSFER, true);
    curl_setopt($ch, CURLOPT_FOLLOWLOCATION, true);
    $img = curl_exec($ch);
    curl_close($ch);
    return $img;
}
