<?php
$stmt = $pdo->prepare('SELECT * FROM users WHERE email = ?');
$stmt->execute([$_POST['email']]);
$user = $stmt->fetch();
$orders = DB::select('SELECT * FROM orders WHERE user_id = ?', [$user['id']]);
