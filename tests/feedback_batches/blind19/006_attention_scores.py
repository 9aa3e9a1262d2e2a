import torch


def attention_scores(inputs):
    gram = torch.mm(inputs.t(), inputs)  # all the pairwise products
    return torch.tensor(gram.tolist())
