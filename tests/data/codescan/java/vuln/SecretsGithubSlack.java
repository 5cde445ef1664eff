public final class Tokens {
    public static final String GITHUB = "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";
    public static final String SLACK_WEBHOOK = "https://hooks.slack.com/services/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";
}
