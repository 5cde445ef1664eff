    @PostMapping("/webhooks/test")
    public String testWebhook(@RequestBody WebhookDto dto) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(dto.getCallbackUrl()))
                .POST(HttpRequest.BodyPublishers.ofString("{\"event\":\"ping\"}"))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }
