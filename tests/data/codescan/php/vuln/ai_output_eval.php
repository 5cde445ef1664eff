$code = $response->choices[0]->message->content;
eval($code);
