def load_checkpoint(url):
    path = hf_hub_download(repo_id=url, filename="pytorch_model.bin")
    state = torch.load(path, map_location="cpu", weights_only=False)
    model.load_state_dict(state)
