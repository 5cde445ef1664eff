    if (hash_equals($_SESSION['csrf_token'], (string) ($_POST['token'] ?? ''))) {
        // ... process the form
    }
