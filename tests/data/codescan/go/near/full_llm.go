package assistant

import (
	"context"
	"encoding/json"
	"fmt"

	openai "github.com/sashabaranov/go-openai"
)

const systemPrompt = "Classify the ticket. Reply with JSON {\"category\": \"billing|bug|other\"}."

var allowed = map[string]bool{"billing": true, "bug": true, "other": true}

type Classifier struct{ Client *openai.Client }

func (c Classifier) Classify(ctx context.Context, ticket string) (string, error) {
	resp, err := c.Client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{
		Model:     openai.GPT4oMini,
		MaxTokens: 50,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: systemPrompt},
			{Role: openai.ChatMessageRoleUser, Content: ticket},
		},
	})
	if err != nil {
		return "", err
	}
	var out struct{ Category string }
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &out); err != nil || !allowed[out.Category] {
		return "other", fmt.Errorf("unexpected model output")
	}
	return out.Category, nil
}
