<?php
$collection = (new MongoDB\Client(getenv('MONGO_URL')))->app->users;
$user = $collection->findOne(['api_token' => $_GET['token']]);
if ($user === null) {
    http_response_code(401);
    exit;
}
