    if ($_POST['token'] == $_SESSION['csrf_token']) {
        // ... process the form
    }
