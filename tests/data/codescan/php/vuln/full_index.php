<?php
// Tiny network tools page
$result = '';
if ($_SERVER['REQUEST_METHOD'] === 'POST') {
    $target = $_POST['target'];
    $result = shell_exec('traceroute -m 10 ' . $target);
}
?>
<!doctype html>
<html>
<body>
<form method="post">
    <input name="target" placeholder="example.com">
    <button>Trace</button>
</form>
<pre><?= htmlspecialchars($result ?? '') ?></pre>
</body>
</html>
