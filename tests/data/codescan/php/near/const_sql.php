<?php
const TABLES = ['users', 'orders'];
foreach (TABLES as $table) {
    $n = $pdo->query("SELECT COUNT(*) FROM $table")->fetchColumn();
    printf("%s: %d\n", $table, $n);
}
