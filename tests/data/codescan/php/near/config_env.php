<?php
return [
    'openai_key' => env('OPENAI_API_KEY'),
    'db_password' => env('DB_PASSWORD', ''),
    'password_min' => 12,
    'token_header' => 'X-Auth-Token',
    'example_key' => 'AKIAIOSFODNN7EXAMPLE',
];
