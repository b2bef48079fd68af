"""Streamlit-side kit for BPE Playground: session state, samples, token colouring and figures."""
