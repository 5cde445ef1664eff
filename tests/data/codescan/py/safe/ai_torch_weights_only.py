state = torch.load(checkpoint_path, map_location="cpu", weights_only=True)
model.load_state_dict(state)
tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
