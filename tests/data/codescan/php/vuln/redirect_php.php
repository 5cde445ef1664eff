<?php
session_start();
if (login($_POST['user'], $_POST['pass'])) {
    header('Location: ' . $_GET['redirect']);
    exit;
}
