$apiKey = substr(md5(rand()), 0, 24); // generate API key
$stmt = $pdo->prepare('INSERT INTO api_keys (user_id, api_key) VALUES (?, ?)');
$stmt->execute([$userId, $apiKey]);
