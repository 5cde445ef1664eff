<?php
$id = $_GET['id'];
$result = mysqli_query($conn, "SELECT * FROM products WHERE id = $id");
while ($row = mysqli_fetch_assoc($result)) {
    echo htmlspecialchars($row['name']);
}
