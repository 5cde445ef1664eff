        OpenAIClient client = OpenAIOkHttpClient.builder()
                .apiKey("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")
                .build();
