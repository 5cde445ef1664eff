    public function ask(Request $request)
    {
        $result = OpenAI::chat()->create([
            'model' => 'gpt-4o-mini',
            'messages' => [
                ['role' => 'system', 'content' => 'You are a helpful assistant for ' . $request->input('company') . '.'],
                ['role' => 'user', 'content' => $request->input('question')],
            ],
        ]);
        return $result->choices[0]->message->content;
    }
