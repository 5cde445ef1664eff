<?php
return [
    'aws' => [
        'key' => 'AKIAF4B2ZFN72ZDUKIDQ',
        'secret' => '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',
        'region' => 'us-east-1',
    ],
    'stripe' => ['secret' => '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'],
];
