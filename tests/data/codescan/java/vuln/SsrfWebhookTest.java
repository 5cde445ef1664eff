    @PostMapping("/webhooks/test")
    public Mono<String> testWebhook(@RequestBody WebhookRequest body) {
        String target = body.getEndpoint();
        return webClient.post()
                .uri(target)
                .bodyValue(Map.of("event", "test"))
                .retrieve()
                .bodyToMono(String.class);
    }
