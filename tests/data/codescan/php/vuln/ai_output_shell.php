$command = trim($result->choices[0]->message->content);
$out = shell_exec($command);
