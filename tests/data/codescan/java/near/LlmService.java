package com.example.ai;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.databind.ObjectMapper;

/** Constant system prompt; the model picks an action by name from a fixed map; output is data. */
public class LlmService {
    private static final String SYSTEM_PROMPT = "Classify the request as one of: REFUND, STATUS, OTHER. Reply with the word only.";
    private static final Map<String, Function<String, String>> ACTIONS = Map.of(
            "REFUND", id -> "refund ticket opened for " + id,
            "STATUS", id -> "status of " + id,
            "OTHER", id -> "forwarded to a human");
    private final ChatModel model;
    private final ObjectMapper mapper = new ObjectMapper();

    public LlmService(ChatModel model) {
        this.model = model;
    }

    public String handle(String orderId, String userText) {
        String label = model.generate(List.of(SystemMessage.from(SYSTEM_PROMPT), UserMessage.from(userText)))
                .content().text().trim().toUpperCase();
        return ACTIONS.getOrDefault(label, ACTIONS.get("OTHER")).apply(orderId);
    }

    public Map<?, ?> parse(String json) throws Exception {
        return mapper.readValue(json, Map.class);
    }
}
