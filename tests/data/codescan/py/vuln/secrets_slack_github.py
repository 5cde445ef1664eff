SLACK_BOT_TOKEN = "xoxb-951316460759-5025800403858-CXd5BgDRV6iBneBr0MzxqUu9"
GITHUB_TOKEN = "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"

def notify(msg):
    WebClient(token=SLACK_BOT_TOKEN).chat_postMessage(channel="#deploys", text=msg)
