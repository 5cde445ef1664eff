    // ...
    $tpl = $_GET['tpl'];
    $content = file_get_contents("templates/" . $tpl);
    echo str_replace('{{name}}', htmlspecialchars($name), $content);
