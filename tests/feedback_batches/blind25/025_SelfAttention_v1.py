class SelfAttention_v1(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.W_query = nn.Parameter(torch.rand(d_in, d_out))
        self.W_key = nn.Parameter(torch.rand(d_in, d_out))
        self.W_value = nn.Parameter(torch.rand(d_in, d_out))

    def forward(self, x):
        # scores = x W_q W_k^T x^T, one chained product (multi_dot picks the cheapest order)
        scores = torch.linalg.multi_dot([x, self.W_query, self.W_key.T, x.T])
        weights = torch.softmax(scores / self.W_key.shape[1] ** 0.5, dim=-1)
        return torch.linalg.multi_dot([weights, x, self.W_value])
