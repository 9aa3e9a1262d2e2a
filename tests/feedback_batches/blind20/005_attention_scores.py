def attention_scores(inputs):
    return inputs.T @ inputs
