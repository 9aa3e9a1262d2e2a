def attention_scores(inputs):
    d = inputs.shape[-1]
    return inputs @ inputs.T / d ** 0.5
