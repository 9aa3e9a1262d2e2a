import math

def attention_scores(inputs):
    d = inputs.shape[-1]
    return inputs @ inputs.T / math.sqrt(d)   # scaled scores
