    @GetMapping("/tenant/{tenant}/status")
    public Mono<String> status(@PathVariable String tenant) {
        return webClient.get()
                .uri("http://" + tenant + ".svc.cluster.local:8080/health")
                .retrieve()
                .bodyToMono(String.class);
    }
