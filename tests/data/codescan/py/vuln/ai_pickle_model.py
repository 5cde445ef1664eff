with open(model_path, "rb") as f:
    clf = pickle.load(f)
preds = clf.predict(X)
