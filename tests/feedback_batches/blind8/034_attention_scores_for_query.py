import torch


def attention_scores_for_query(inputs, query):
    # Keras habit: do the maths in float32 whatever comes in
    return torch.matmul(inputs.float(), query.float())
