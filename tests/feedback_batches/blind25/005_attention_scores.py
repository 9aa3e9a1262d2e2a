def attention_scores(inputs):
    scores = inputs.T @ inputs                     # all pairs of dot products
    return torch.softmax(scores, dim=-1)           # normalise each row
