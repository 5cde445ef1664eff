$email = $_POST['email'];
$stmt = $pdo->query("SELECT * FROM users WHERE email = '" . $email . "'");
$user = $stmt->fetch();
