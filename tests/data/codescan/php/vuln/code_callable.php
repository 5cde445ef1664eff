$action = $_GET['action'];
call_user_func($action, $_GET['arg']);
