import torch


def attention_scores(inputs):
    # Gram matrix of the rows: addmm with beta=0 is just inputs @ inputs^T
    gram = inputs.new_zeros(inputs.shape[0], inputs.shape[0])
    return torch.addmm(gram, inputs, inputs.transpose(0, 1), beta=0, alpha=1)
