    $result = $client->chat()->create([
        'model' => 'gpt-4o-mini',
        'messages' => [['role' => 'user', 'content' => 'Shell command to ' . $task . '. Command only.']],
    ]);
    $command = $result->choices[0]->message->content;
    exec($command, $output, $status);
