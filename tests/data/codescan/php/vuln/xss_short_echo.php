<?php $term = $_GET['q'] ?? ''; ?>
<h1>Search results for <?= $term ?></h1>
<?php foreach (search_products($term) as $p): ?>
    <li><?= htmlspecialchars($p['name']) ?></li>
<?php endforeach; ?>
