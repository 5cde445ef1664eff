<?php

namespace App\Services;

use OpenAI\Laravel\Facades\OpenAI;

/** Constant system prompt; the reply is parsed as JSON and checked against an allow-list. */
final class TicketClassifier
{
    private const SYSTEM_PROMPT = 'Classify the ticket. Reply with JSON {"category": "billing|bug|other"}.';
    private const CATEGORIES = ['billing', 'bug', 'other'];

    public function classify(string $ticket): string
    {
        $result = OpenAI::chat()->create([
            'model' => 'gpt-4o-mini',
            'max_tokens' => 50,
            'messages' => [
                ['role' => 'system', 'content' => self::SYSTEM_PROMPT],
                ['role' => 'user', 'content' => $ticket],
            ],
        ]);
        $data = json_decode($result->choices[0]->message->content, true);
        $category = is_array($data) ? ($data['category'] ?? 'other') : 'other';
        return in_array($category, self::CATEGORIES, true) ? $category : 'other';
    }
}
