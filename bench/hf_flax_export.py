"""Hugging Face transformers' Flax models (4.x) as StableHLO, with random weights and small configs.

Imported by bench/hf_flax_models.py once transformers and flax are known to import. Each entry of
`MODELS` builds one model from a small config (2 layers, hidden 64) and returns the function a user
would jit, with its example arguments: the parameters are the function's first argument (as with
`jax.jit(apply)(params, batch)`), so the lowered module takes the weights as inputs and stays
small, and the same random weights feed JAX and ttopt's TTIR interpreter.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable

import jax
import jax.numpy as jnp
import numpy as np
import transformers as tf

if "a_max" not in inspect.signature(jnp.clip).parameters:  # pragma: no cover - depends on the jax version
    # jax 0.10 removed jnp.clip's a_min/a_max keywords, which transformers 4.x's Flax T5 still passes
    _clip = jnp.clip

    def _compat_clip(x: Any, min: Any = None, max: Any = None, *, a_min: Any = None, a_max: Any = None) -> Any:
        return _clip(x, a_min if min is None else min, a_max if max is None else max)

    jnp.clip = _compat_clip

SEQ = 8  # tokens per prompt
VOCAB = 128
MAX_LEN = 16  # KV-cache length of the decode steps
TEXT = dict(vocab_size=VOCAB, max_position_embeddings=64)
BERT_LIKE = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, **TEXT)
LLAMA_LIKE = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, **TEXT)
SEQ2SEQ = dict(d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
               encoder_ffn_dim=128, decoder_ffn_dim=128, **TEXT)  # fmt: skip


@dataclass
class Exported:
    """One lowered model: its StableHLO text, flat inputs and JAX's flat outputs on them."""

    text: str
    inputs: list[np.ndarray]
    outputs: list[np.ndarray]


Builder = Callable[[], tuple[Callable[..., Any], tuple[Any, ...]]]
MODELS: dict[str, Builder] = {}
# Models ttopt does not take, and why (tt-mlir HEAD does not either): the bench reports them apart.
KNOWN_FAILURES = {
    "gpt2_generate": "generate() is a stablehlo.while loop over decode steps; TTIR has no loop (HEAD has no while pattern)",
}


def model(name: str) -> Callable[[Builder], Builder]:
    """Register a builder: () -> (function of (params, *inputs), example arguments)."""

    def deco(b: Builder) -> Builder:
        MODELS[name] = b
        return b

    return deco


DTYPE: Any = jnp.float32  # the models' compute dtype (and their weights' and images'): export() sets it


def _make(cls: Any, config: Any) -> Any:
    """The model with random weights, computing in DTYPE."""
    m = cls(config, seed=0, dtype=DTYPE)
    if DTYPE != jnp.float32:
        m.params = jax.tree_util.tree_map(lambda x: x.astype(DTYPE) if jnp.issubdtype(x.dtype, jnp.floating) else x, m.params)
    return m


def _ids(batch: int = 2, seq: int = SEQ) -> jnp.ndarray:
    return jnp.asarray(np.random.default_rng(1).integers(2, VOCAB, (batch, seq)), jnp.int32)


def _mask(batch: int = 2, seq: int = SEQ) -> jnp.ndarray:
    """Attention mask of a padded batch: the second prompt is 3 tokens shorter."""
    m = np.ones((batch, seq), np.int32)
    m[1:, seq - 3 :] = 0
    return jnp.asarray(m)


def _image(shape: tuple[int, ...]) -> jnp.ndarray:
    return jnp.asarray(np.random.default_rng(2).standard_normal(shape), DTYPE)


def _last(out: Any) -> Any:
    return out[0] if isinstance(out, tuple) else out.last_hidden_state


def _encoder(cls: Any, config: Any, mask: bool = True, type_ids: bool = False) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """An encoder-only text model: (params, ids[, mask]) -> last hidden state."""
    m = _make(cls, config)
    if type_ids:
        return (lambda p, ids, am: _last(m(ids, am, jnp.zeros_like(ids), params=p))), (m.params, _ids(), _mask())
    if mask:
        return (lambda p, ids, am: _last(m(ids, am, params=p))), (m.params, _ids(), _mask())
    return (lambda p, ids: _last(m(ids, params=p))), (m.params, _ids())


FILLED = 5  # tokens already in the KV cache of the decode steps


def _filled(cache: Any) -> Any:
    """An `init_cache` cache whose index says it holds FILLED tokens."""
    return jax.tree_util.tree_map(lambda x: jnp.full_like(x, FILLED) if x.ndim == 0 else x, cache)


def _decode_mask(batch: int = 1) -> jnp.ndarray:
    """The attention mask of a decode step: the FILLED cached tokens and the new one."""
    return jnp.asarray(np.repeat(np.arange(MAX_LEN)[None] <= FILLED, batch, 0), jnp.int32)


def _decoder_step(cls: Any, config: Any, positions: bool = True, batch: int = 1) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """One decode step of a causal LM with its KV cache: (params, cache, id, mask, pos) -> (hidden, cache)."""
    m = _make(cls, config)
    cache = _filled(m.init_cache(batch, MAX_LEN))

    def step(p: Any, c: Any, ids: Any, am: Any, pos: Any) -> Any:
        where = {"position_ids": pos} if positions else {}  # (BLOOM's ALiBi has no positions)
        out = m(ids, attention_mask=am, params=p, past_key_values=c, **where)
        return out.last_hidden_state, out.past_key_values

    return step, (m.params, cache, _ids(batch, 1), _decode_mask(batch), jnp.full((batch, 1), FILLED, jnp.int32))


@model("gpt2")
def gpt2() -> Any:
    return _encoder(tf.FlaxGPT2Model, tf.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=VOCAB, n_positions=64))


@model("gpt2_decode")
def gpt2_decode() -> Any:
    return _decoder_step(tf.FlaxGPT2Model, tf.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=VOCAB, n_positions=64))


@model("bert")
def bert() -> Any:
    return _encoder(tf.FlaxBertModel, tf.BertConfig(**BERT_LIKE), type_ids=True)


@model("roberta")
def roberta() -> Any:
    return _encoder(tf.FlaxRobertaModel, tf.RobertaConfig(**BERT_LIKE))


@model("distilbert")
def distilbert() -> Any:
    return _encoder(tf.FlaxDistilBertModel, tf.DistilBertConfig(dim=64, n_layers=2, n_heads=4, hidden_dim=128, **TEXT))


@model("albert")
def albert() -> Any:
    return _encoder(tf.FlaxAlbertModel, tf.AlbertConfig(embedding_size=32, **BERT_LIKE))


@model("electra")
def electra() -> Any:
    return _encoder(tf.FlaxElectraModel, tf.ElectraConfig(embedding_size=32, **BERT_LIKE))


@model("roformer")
def roformer() -> Any:
    return _encoder(tf.FlaxRoFormerModel, tf.RoFormerConfig(embedding_size=64, **BERT_LIKE))


@model("t5_encoder")
def t5_encoder() -> Any:
    cfg = tf.T5Config(d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4, vocab_size=VOCAB)
    return _encoder(tf.FlaxT5EncoderModel, cfg)


def _seq2seq(cls: Any, config: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """An encoder-decoder: (params, ids, mask, decoder ids) -> decoder's last hidden state."""
    m = _make(cls, config)

    def f(p: Any, ids: Any, am: Any, dec: Any) -> Any:
        return m(ids, attention_mask=am, decoder_input_ids=dec, params=p).last_hidden_state

    return f, (m.params, _ids(), _mask(), _ids(2, 4))


@model("t5")
def t5() -> Any:
    cfg = tf.T5Config(d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4, vocab_size=VOCAB, decoder_start_token_id=0)
    return _seq2seq(tf.FlaxT5Model, cfg)


@model("bart")
def bart() -> Any:
    return _seq2seq(tf.FlaxBartModel, tf.BartConfig(**SEQ2SEQ))


@model("gpt_neo_decode")
def gpt_neo_decode() -> Any:
    cfg = tf.GPTNeoConfig(hidden_size=64, num_layers=2, num_heads=4, attention_types=[[["global", "local"], 1]], window_size=4, **TEXT)
    return _decoder_step(tf.FlaxGPTNeoModel, cfg)


@model("llama")
def llama() -> Any:
    return _encoder(tf.FlaxLlamaModel, tf.LlamaConfig(**LLAMA_LIKE))


@model("llama_decode")
def llama_decode() -> Any:
    return _decoder_step(tf.FlaxLlamaModel, tf.LlamaConfig(**LLAMA_LIKE))


@model("mistral")
def mistral() -> Any:
    return _encoder(tf.FlaxMistralModel, tf.MistralConfig(sliding_window=4, **LLAMA_LIKE))


@model("gemma")
def gemma() -> Any:
    return _encoder(tf.FlaxGemmaModel, tf.GemmaConfig(head_dim=16, **{**LLAMA_LIKE, "num_key_value_heads": 1}))


@model("mistral_decode")
def mistral_decode() -> Any:
    return _decoder_step(tf.FlaxMistralModel, tf.MistralConfig(sliding_window=4, **LLAMA_LIKE))


@model("gemma_decode")
def gemma_decode() -> Any:
    return _decoder_step(tf.FlaxGemmaModel, tf.GemmaConfig(head_dim=16, **{**LLAMA_LIKE, "num_key_value_heads": 1}))


@model("gpt_neo")
def gpt_neo() -> Any:
    cfg = tf.GPTNeoConfig(hidden_size=64, num_layers=2, num_heads=4, attention_types=[[["global", "local"], 1]], window_size=4, **TEXT)
    return _encoder(tf.FlaxGPTNeoModel, cfg)


@model("gptj")
def gptj() -> Any:
    return _encoder(tf.FlaxGPTJModel, tf.GPTJConfig(n_embd=64, n_layer=2, n_head=4, rotary_dim=8, vocab_size=VOCAB, n_positions=64))


@model("gptj_decode")
def gptj_decode() -> Any:
    return _decoder_step(tf.FlaxGPTJModel, tf.GPTJConfig(n_embd=64, n_layer=2, n_head=4, rotary_dim=8, vocab_size=VOCAB, n_positions=64))


@model("opt")
def opt() -> Any:
    cfg = tf.OPTConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, ffn_dim=128, word_embed_proj_dim=64, **TEXT)
    return _encoder(tf.FlaxOPTModel, cfg)


@model("opt_decode")
def opt_decode() -> Any:
    cfg = tf.OPTConfig(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, ffn_dim=128, word_embed_proj_dim=64, **TEXT)
    return _decoder_step(tf.FlaxOPTModel, cfg)


@model("bloom")
def bloom() -> Any:
    return _encoder(tf.FlaxBloomModel, tf.BloomConfig(hidden_size=64, n_layer=2, n_head=4, vocab_size=VOCAB))


@model("bloom_decode")
def bloom_decode() -> Any:
    return _decoder_step(tf.FlaxBloomModel, tf.BloomConfig(hidden_size=64, n_layer=2, n_head=4, vocab_size=VOCAB), positions=False)


@model("xglm")
def xglm() -> Any:
    cfg = tf.XGLMConfig(d_model=64, num_layers=2, attention_heads=4, ffn_dim=128, **TEXT)
    return _encoder(tf.FlaxXGLMModel, cfg)


@model("bigbird")
def bigbird() -> Any:
    # block-sparse attention needs seq > (5 + 2 * random blocks) * block size: 8 blocks of 2 tokens here
    cfg = tf.BigBirdConfig(attention_type="block_sparse", block_size=2, num_random_blocks=1, **BERT_LIKE)
    m = _make(tf.FlaxBigBirdModel, cfg)
    ids = jnp.asarray(np.random.default_rng(1).integers(2, VOCAB, (2, 16)), jnp.int32)
    return (lambda p, i, am: _last(m(i, am, params=p))), (m.params, ids, _mask(2, 16))


@model("longt5")
def longt5() -> Any:
    cfg = tf.LongT5Config(d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4, vocab_size=VOCAB, decoder_start_token_id=0,
                          encoder_attention_type="transient-global", local_radius=2, global_block_size=4)  # fmt: skip
    return _seq2seq(tf.FlaxLongT5Model, cfg)


@model("mbart")
def mbart() -> Any:
    return _seq2seq(tf.FlaxMBartModel, tf.MBartConfig(**SEQ2SEQ))


@model("pegasus")
def pegasus() -> Any:
    return _seq2seq(tf.FlaxPegasusModel, tf.PegasusConfig(**SEQ2SEQ))


@model("marian")
def marian() -> Any:
    return _seq2seq(tf.FlaxMarianModel, tf.MarianConfig(decoder_vocab_size=VOCAB, **SEQ2SEQ))


@model("blenderbot")
def blenderbot() -> Any:
    return _seq2seq(tf.FlaxBlenderbotModel, tf.BlenderbotConfig(**SEQ2SEQ))


@model("xlm_roberta")
def xlm_roberta() -> Any:
    return _encoder(tf.FlaxXLMRobertaModel, tf.XLMRobertaConfig(**BERT_LIKE))


@model("roberta_prelayernorm")
def roberta_prelayernorm() -> Any:
    return _encoder(tf.FlaxRobertaPreLayerNormModel, tf.RobertaPreLayerNormConfig(**BERT_LIKE))


@model("gpt2_lm_head")
def gpt2_lm_head() -> Any:
    m = _make(tf.FlaxGPT2LMHeadModel, tf.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=VOCAB, n_positions=64))
    return (lambda p, ids, am: m(ids, am, params=p).logits), (m.params, _ids(), _mask())


def _encoder_decoder_step(m: Any, encoder_input: Any, positions: bool = True) -> Any:
    """One decoder step of encoder-decoder model `m` with its self-attention cache and the encoder's
    output (decoder position ids as an argument when the model takes them)."""
    enc = m.encode(encoder_input, params=m.params)
    cache = _filled(m.init_cache(1, MAX_LEN, enc))

    def step(p: Any, c: Any, h: Any, ids: Any, dm: Any, *pos: Any) -> Any:
        extra = {"decoder_position_ids": pos[0]} if pos else {}
        out = m.decode(ids, (h,), decoder_attention_mask=dm, past_key_values=c, params=p, **extra)
        return out.last_hidden_state, out.past_key_values

    args = (m.params, cache, enc.last_hidden_state, _ids(1, 1), _decode_mask())
    return step, (*args, jnp.asarray([[FILLED]], jnp.int32)) if positions else args


@model("bart_decode")
def bart_decode() -> Any:
    """One decoder step of BART with its self-attention cache and the encoder's output."""
    return _encoder_decoder_step(_make(tf.FlaxBartModel, tf.BartConfig(**SEQ2SEQ)), _ids(1))


@model("t5_decode")
def t5_decode() -> Any:
    """One decoder step of T5 with its self-attention cache and the encoder's output."""
    cfg = tf.T5Config(d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4, vocab_size=VOCAB, decoder_start_token_id=0)
    return _encoder_decoder_step(_make(tf.FlaxT5Model, cfg), _ids(1), positions=False)


@model("whisper_decode")
def whisper_decode() -> Any:
    """One decoder step of Whisper with its self-attention cache and the encoder's output."""
    return _encoder_decoder_step(_make(tf.FlaxWhisperModel, _whisper_config()), _image((1, 16, 32)))


@model("llama_decode_batch2")
def llama_decode_batch2() -> Any:
    return _decoder_step(tf.FlaxLlamaModel, tf.LlamaConfig(**LLAMA_LIKE), batch=2)


@model("gpt2_generate")
def gpt2_generate() -> Any:
    """Greedy generation of 4 tokens: HF's generate loop (a while loop over decode steps)."""
    m = _make(tf.FlaxGPT2LMHeadModel, tf.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=VOCAB, n_positions=64))
    return (lambda p, ids: m.generate(ids, params=p, max_new_tokens=4, do_sample=False, pad_token_id=0).sequences), (m.params, _ids(1))


def _vision(cls: Any, config: Any, shape: tuple[int, ...]) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """An image model: (params, pixels) -> its last hidden state."""
    m = _make(cls, config)
    return (lambda p, px: _last(m(px, params=p))), (m.params, _image(shape))


VIT_LIKE = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, image_size=32, patch_size=8)


@model("vit")
def vit() -> Any:
    return _vision(tf.FlaxViTModel, tf.ViTConfig(**VIT_LIKE), (2, 3, 32, 32))


@model("beit")
def beit() -> Any:
    return _vision(tf.FlaxBeitModel, tf.BeitConfig(**VIT_LIKE, use_relative_position_bias=True), (2, 3, 32, 32))


@model("dinov2")
def dinov2() -> Any:
    return _vision(tf.FlaxDinov2Model, tf.Dinov2Config(**VIT_LIKE), (2, 3, 32, 32))


@model("vit_gpt2")
def vit_gpt2() -> Any:
    """FlaxVisionEncoderDecoderModel: a ViT encoder, a GPT-2 decoder with cross-attention (captioning)."""
    dec = tf.GPT2Config(n_embd=64, n_layer=2, n_head=4, vocab_size=VOCAB, n_positions=64, add_cross_attention=True, is_decoder=True)
    m = _make(tf.FlaxVisionEncoderDecoderModel, tf.VisionEncoderDecoderConfig.from_encoder_decoder_configs(tf.ViTConfig(**VIT_LIKE), dec))
    return (lambda p, px, ids: m(px, ids, params=p).logits), (m.params, _image((2, 3, 32, 32)), _ids(2, 4))


@model("clip")
def clip() -> Any:
    text = dict(
        hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, vocab_size=VOCAB, max_position_embeddings=SEQ
    )
    vision = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, image_size=32, patch_size=8)
    m = _make(tf.FlaxCLIPModel, tf.CLIPConfig(text_config=text, vision_config=vision, projection_dim=32))

    def f(p: Any, ids: Any, px: Any, am: Any) -> Any:
        out = m(ids, px, am, params=p)
        return out.logits_per_image, out.text_embeds, out.image_embeds

    return f, (m.params, _ids(), _image((2, 3, 32, 32)), _mask())


@model("resnet")
def resnet() -> Any:
    cfg = tf.ResNetConfig(embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1], layer_type="basic")
    return _vision(tf.FlaxResNetModel, cfg, (2, 3, 32, 32))


@model("regnet")
def regnet() -> Any:
    cfg = tf.RegNetConfig(embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1], groups_width=8)
    return _vision(tf.FlaxRegNetModel, cfg, (2, 3, 32, 32))


@model("wav2vec2")
def wav2vec2() -> Any:
    cfg = tf.Wav2Vec2Config(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, conv_dim=(16, 16),
                            conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4,
                            do_stable_layer_norm=True, feat_extract_norm="layer")  # fmt: skip
    # (Flax Wav2Vec2 implements only the stable-layer-norm variant, the large checkpoints' one)
    return _vision(tf.FlaxWav2Vec2Model, cfg, (2, 400))


def _whisper_config() -> Any:
    return tf.WhisperConfig(num_mel_bins=16, max_source_positions=16, max_target_positions=16, **{**SEQ2SEQ, "max_position_embeddings": 16})


@model("whisper_encoder")
def whisper_encoder() -> Any:
    m = _make(tf.FlaxWhisperModel, _whisper_config())
    return (lambda p, feats: m.encode(feats, params=p).last_hidden_state), (m.params, _image((2, 16, 32)))


def export(name: str, dtype: str = "f32") -> Exported:
    """Lower model `name` (computing in `dtype`, "f32" or "bf16") and run JAX on its example arguments."""
    global DTYPE
    DTYPE = {"f32": jnp.float32, "bf16": jnp.bfloat16}[dtype]
    fn, args = MODELS[name]()
    jitted = jax.jit(fn, keep_unused=True)
    text = jitted.lower(*args).as_text()
    outputs = [np.asarray(x) for x in jax.tree_util.tree_leaves(jitted(*args))]
    inputs = [np.asarray(x) for x in jax.tree_util.tree_leaves(args)]
    return Exported(text, inputs, outputs)
