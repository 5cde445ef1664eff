from transformers import AutoModelForCausalLM, AutoTokenizer

model_id = os.environ.get("MODEL_ID", "some-org/chat-7b")
tokenizer = AutoTokenizer.from_pretrained(model_id, trust_remote_code=True)
model = AutoModelForCausalLM.from_pretrained(model_id, trust_remote_code=True)
